/** A field another manager owns, reported by the API server as an apply conflict. */
export interface ApplyConflict {
  field: string;
  manager: string;
  message: string;
}

interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `conflict with "kubectl-edit" using apps/v1` → `kubectl-edit`. */
export function managerOf(message: string): string {
  return /conflict with "([^"]+)"/.exec(message)?.[1] ?? '';
}

/** The conflicting fields of a 409 answer (`details.causes` of the API server's Status). */
export function conflictsOf(status: unknown): ApplyConflict[] {
  const causes = (status as { details?: { causes?: StatusCause[] } } | undefined)?.details?.causes ?? [];
  return causes
    .filter((cause) => cause.reason === 'FieldManagerConflict')
    .map((cause) => ({ field: cause.field ?? '', manager: managerOf(cause.message ?? ''), message: cause.message ?? '' }));
}
