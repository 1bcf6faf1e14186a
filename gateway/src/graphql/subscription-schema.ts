/**
 * SDL of live updates, served over graphql-ws (subprotocol `graphql-transport-ws`) on the /graphql path
 * of the gateway. Both are fed by the chain service's job-event stream (WatchJobs). Appended to
 * schema.ts's typeDefs.
 */
export const subscriptionTypeDefs = /* GraphQL */ `
  """
  Live updates over WebSocket (graphql-ws protocol) at /graphql. Authenticate in connection_init with the
  payload {"apiKey": "<X-Api-Key value>"} or {"authorization": "Bearer <OpenID Connect access token>"};
  a missing or bad credential closes the socket with 4401 or 4403. The socket closes with 4401 when its
  key is revoked, 4403 when its account changes (reconnect), 4001 when its bearer token expires (reconnect
  with a fresh one), and 4000 after GRAPHQL_WS_MAX_LIFETIME_MS (reconnect; subscribe again with ids to
  catch up).
  """
  type Subscription {
    """
    A job after each status change (QUEUED, SUBMITTED, then COMPLETED or FAILED); the caller's jobs only.
    With ids, the current state of each job comes first, so nothing that happened between reading a job
    and subscribing is missed. The stream ends when the client completes it or disconnects.
    """
    jobUpdated(
      "Only these jobs (at most 100); omit for every job of the account."
      ids: [ID!]
      "Only jobs of this kind."
      kind: JobKind
      "Only jobs sent to this network (an alias such as mumbai stays as given)."
      network: String
    ): Job!
    """
    An NFT after each change a job makes to it (mint, transfer, claim: MINTING, CREATED, TRANSFERRING,
    TRANSFERRED). sendNft and revokeNftSend answer the changed NFT in their payloads and are not repeated here; a
    failed mint is seen on jobUpdated. With guid, the NFT's current state comes first.
    """
    nftUpdated("Only this NFT." guid: ID): Nft!
  }
`;
