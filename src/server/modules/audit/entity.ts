/** The activity log's entity type of everything about a free-audit request (its website checks too). */
export const AUDIT_ENTITY = 'audit';
