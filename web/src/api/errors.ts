/** The contract's error body: `{error, code, details}`. */
export interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}

/** A failed API call: HTTP status plus the contract's error body (or a stand-in for other bodies). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? {};
  }

  /** 403 because the action needs an approved access request (just-in-time access). */
  get approvalRequired(): boolean {
    return this.status === 403 && this.details.reason === 'approval_required';
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string' && typeof (value as ErrorBody).code === 'string';
}

/** Builds the ApiError of a non-2xx response from its body, whatever the body is. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (isErrorBody(parsed)) return new ApiError(response.status, parsed);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(response.status, { error: text.trim() || response.statusText || `HTTP ${response.status}`, code: `HTTP_${response.status}` });
}

/** A network failure (service unreachable) as an ApiError with status 0. */
export function networkError(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(0, { error: `cannot reach the service: ${message}`, code: 'NETWORK' });
}

/** True for the rejection of an aborted fetch or read. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
