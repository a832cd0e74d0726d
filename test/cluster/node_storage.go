package main

// A small local-path provisioner for the real node: StorageClass local-path
// (the cluster default while the node runs, WaitForFirstConsumer) and a loop
// that gives each of its claims scheduled to the real node a `local` PV in
// DIR/node/volumes, and deletes released ones with their directory.

import (
	"context"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

const (
	storageClassName   = "local-path"
	storageProvisioner = "pilothouse.dev/local-path"
	provisionedBy      = "pv.kubernetes.io/provisioned-by"
	selectedNode       = "volume.kubernetes.io/selected-node"
)

func startLocalPathProvisioner(ctx context.Context, n *realNode) error {
	bind := storagev1.VolumeBindingWaitForFirstConsumer
	reclaim := corev1.PersistentVolumeReclaimDelete
	sc := &storagev1.StorageClass{
		ObjectMeta: metav1.ObjectMeta{Name: storageClassName,
			Annotations: map[string]string{"storageclass.kubernetes.io/is-default-class": "true"}},
		Provisioner:       storageProvisioner,
		VolumeBindingMode: &bind,
		ReclaimPolicy:     &reclaim,
	}
	if _, err := n.cs.StorageV1().StorageClasses().Create(ctx, sc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	// The loop outlives start's context: it stops with the process.
	go func() {
		for {
			lctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			provisionOnce(lctx, n)
			cancel()
			time.Sleep(time.Second)
		}
	}()
	return nil
}

func provisionOnce(ctx context.Context, n *realNode) {
	pvcs, err := n.cs.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for i := range pvcs.Items {
		pvc := &pvcs.Items[i]
		if pvc.Spec.StorageClassName == nil || *pvc.Spec.StorageClassName != storageClassName ||
			pvc.Spec.VolumeName != "" || pvc.Annotations[selectedNode] != nodeName || pvc.DeletionTimestamp != nil {
			continue
		}
		if err := provisionClaim(ctx, n, pvc); err != nil {
			n.logs.Printf("provision %s/%s: %v", pvc.Namespace, pvc.Name, err)
		}
	}
	pvs, err := n.cs.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, pv := range pvs.Items {
		if pv.Annotations[provisionedBy] != storageProvisioner ||
			(pv.Status.Phase != corev1.VolumeReleased && pv.Status.Phase != corev1.VolumeFailed) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(n.home, "volumes", pv.Name))
		_ = n.cs.CoreV1().PersistentVolumes().Delete(ctx, pv.Name, metav1.DeleteOptions{})
		n.logs.Printf("deleted volume %s", pv.Name)
	}
}

func provisionClaim(ctx context.Context, n *realNode, pvc *corev1.PersistentVolumeClaim) error {
	name := "pvc-" + string(pvc.UID)
	path := filepath.Join(n.home, "volumes", name)
	if err := os.MkdirAll(path, 0o777); err != nil {
		return err
	}
	// World-writable: the pod's user owns nothing on the host (fsGroup
	// applies to local volumes, but not before the first mount).
	if err := os.Chmod(path, 0o777); err != nil {
		return err
	}
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{provisionedBy: storageProvisioner}},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: pvc.Spec.Resources.Requests[corev1.ResourceStorage]},
			AccessModes:                   pvc.Spec.AccessModes,
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete,
			StorageClassName:              storageClassName,
			ClaimRef:                      &corev1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: pvc.Namespace, Name: pvc.Name, UID: pvc.UID},
			PersistentVolumeSource:        corev1.PersistentVolumeSource{Local: &corev1.LocalVolumeSource{Path: path}},
			NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpIn, Values: []string{nodeName}}},
			}}}},
		},
	}
	if _, err := n.cs.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	n.logs.Printf("provisioned %s for %s/%s at %s", name, pvc.Namespace, pvc.Name, path)
	return nil
}

// deleteProvisionedVolumes removes the PVs this provisioner made (their
// directories go with DIR/node).
func deleteProvisionedVolumes(ctx context.Context, cs kubernetes.Interface) {
	pvs, err := cs.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, pv := range pvs.Items {
		if pv.Annotations[provisionedBy] == storageProvisioner {
			_ = cs.CoreV1().PersistentVolumes().Delete(ctx, pv.Name, metav1.DeleteOptions{})
		}
	}
}
