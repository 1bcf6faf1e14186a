/**
 * SDL of Relay's Object Identification: the Node interface, node(id:) and nodes(ids:). Appended to
 * schema.ts's typeDefs; the types that implement Node declare it (and their nodeId) in their own SDL, and
 * resolvers/node-types.ts says how each one is refetched.
 */
export const nodeTypeDefs = /* GraphQL */ `
  """
  An object that can be refetched by its nodeId alone (Relay's Object Identification). nodeId is separate
  from id: id stays what /v1/call and every existing client read.
  """
  interface Node {
    "Globally unique, opaque id of this object, for node(id:) and nodes(ids:); unique across types, stable while the object exists."
    nodeId: ID!
  }

  extend type Query {
    """
    The object a nodeId names, read as the caller as the type's own Query reads it (investor names and
    e-mails masked: node takes no decryption key). Null when the caller may not see it or it no longer
    exists; BAD_USER_INPUT for an id this API did not give out.
    """
    node("A nodeId, as a Node type's nodeId field gave it." id: ID!): Node
    """
    The objects some nodeIds name, in the order of ids, null where node(id) would be null. At most 100
    ids (BAD_USER_INPUT beyond); the query cost counts the selection once per id.
    """
    nodes("nodeIds, as Node types' nodeId fields gave them; at most 100." ids: [ID!]!): [Node]!
  }
`;
