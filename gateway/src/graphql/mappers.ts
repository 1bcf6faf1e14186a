/** The message and id of a service's answer, as a GraphQL payload carries them (the id null when absent). */
export function messageResult(r: { message: string; id?: number | undefined }) {
  return { message: r.message, id: r.id ?? null };
}
