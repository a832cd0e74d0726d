// The permission matrix lives in src/rbac/permissions.ts (rbac is pure policy and never imports http).
export { permissionMatrix, permissions, type Permission } from '../rbac/permissions.js';
