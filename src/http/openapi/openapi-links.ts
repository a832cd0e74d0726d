import type { JsonObject } from './openapi-schema.js';

/**
 * OpenAPI `links` of the success answers: what a client (and Schemathesis's stateful phase) does
 * next with a created thing, create → read → change → delete, by the answer's own id or name.
 */
function follow(target: Record<string, string>, parameter: string, pointer: string): JsonObject {
  return Object.fromEntries(
    Object.entries(target).map(([name, operationId]) => [name, { operationId, parameters: { [parameter]: `$response.body#/${pointer}` } }]),
  );
}

export const operationLinks: Record<string, JsonObject> = {
  postApiAccessRequests: follow(
    {
      GetAccessRequest: 'getApiAccessRequestsId',
      ApproveAccessRequest: 'postApiAccessRequestsIdApprove',
      DenyAccessRequest: 'postApiAccessRequestsIdDeny',
      WithdrawAccessRequest: 'deleteApiAccessRequestsId',
    },
    'id',
    'id',
  ),
  postApiPortforward: follow({ StopPortForward: 'deleteApiPortforwardId' }, 'id', 'id'),
  postApiReports: follow({ GetReport: 'getApiReportsId', DownloadReport: 'getApiReportsIdDownload', DeleteReport: 'deleteApiReportsId' }, 'id', 'id'),
  postApiMcpServers: follow(
    { EnableMcpServer: 'patchApiMcpServersName', EditMcpServer: 'putApiMcpServersName', DeleteMcpServer: 'deleteApiMcpServersName' },
    'name',
    'name',
  ),
  postApiHelmRepositories: follow({ RemoveHelmRepository: 'deleteApiHelmRepositoriesName' }, 'name', 'name'),
  postApiAdminUsers: follow(
    {
      GetUser: 'getApiAdminUsersUsername',
      UpdateUser: 'patchApiAdminUsersUsername',
      GetUserSessions: 'getApiAdminUsersUsernameSessions',
      DeleteUser: 'deleteApiAdminUsersUsername',
    },
    'username',
    'username',
  ),
};
