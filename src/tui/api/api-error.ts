/** An error answer of the Pilothouse API, in the contract's words: `{error, code, details}`. */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** A 403 that an approved just-in-time access request would turn into an allow. */
  get approvalRequired(): boolean {
    return this.status === 403 && this.details.reason === 'approval_required';
  }

  /** The footer line: `CODE: message`. */
  get line(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Builds the ApiError of a non-2xx response from its JSON body (or its status line when the body is not JSON). */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: string; code?: string; details?: Record<string, unknown> };
    return new ApiError(response.status, body.code ?? `HTTP_${response.status}`, body.error ?? response.statusText, body.details ?? {});
  } catch {
    return new ApiError(response.status, `HTTP_${response.status}`, text.trim() || response.statusText);
  }
}

/** The footer line of any error. */
export function errorLine(error: unknown): string {
  if (error instanceof ApiError) return error.line;
  return error instanceof Error ? error.message : String(error);
}
