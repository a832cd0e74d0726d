import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { RestClient } from '../../kube/rest-client.js';

/** The Kubernetes user a TokenReview vouched for. */
export interface KubernetesUser {
  username: string;
  uid?: string;
  groups: readonly string[];
}

/** What the API server said about a token: who it is, or why it is not accepted. */
export type ReviewResult = { authenticated: true; user: KubernetesUser } | { authenticated: false; reason: 'invalid_token' | 'wrong_audience' };

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[] };
  audiences?: string[];
}

const tokenReviewPath = '/apis/authentication.k8s.io/v1/tokenreviews';

/**
 * Asks the API server whether a bearer token is valid (`TokenReview`, made with the service's own
 * identity, which needs `create` on `tokenreviews`). With audiences configured, the token must be
 * valid for one of them. A failing review call is UNAVAILABLE (503), never the caller's 401.
 */
export class TokenReviewer {
  constructor(
    private readonly rest: RestClient,
    private readonly audiences: readonly string[],
    private readonly logger: Logger,
  ) {}

  async review(token: string): Promise<ReviewResult> {
    const spec = this.audiences.length > 0 ? { token, audiences: [...this.audiences] } : { token };
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec };
    try {
      const answer = await this.rest.json<{ status?: TokenReviewStatus }>('POST', tokenReviewPath, { body, target: 'tokenreviews' });
      return interpretReview(answer.status ?? {}, this.audiences);
    } catch (error) {
      // The error carries the API server's message (never the request body, so never the token).
      this.logger.warn({ err: error }, 'token review failed');
      throw new AppError('UNAVAILABLE', 'cannot check the token right now (TokenReview failed)', { reason: 'token_review_failed' });
    }
  }
}

/** Reads a TokenReview status; with configured audiences, the reviewed audiences must overlap them. */
export function interpretReview(status: TokenReviewStatus, audiences: readonly string[]): ReviewResult {
  const username = status.user?.username;
  if (status.authenticated !== true || !username) return { authenticated: false, reason: 'invalid_token' };
  if (audiences.length > 0 && !(status.audiences ?? []).some((audience) => audiences.includes(audience))) {
    return { authenticated: false, reason: 'wrong_audience' };
  }
  return { authenticated: true, user: { username, uid: status.user?.uid, groups: status.user?.groups ?? [] } };
}
