// A stand-in for Astro's virtual 'astro:actions' module, so plain Node (tests/support/list-actions.ts) can
// import src/actions and read the names of its Actions. Nothing here runs an Action.
export class ActionError extends Error {
  constructor({ code, message } = {}) {
    super(message);
    this.code = code;
  }
}
export function defineAction() {
  const action = () => {
    throw new Error('stub: Actions do not run here');
  };
  action.orThrow = action;
  return action;
}
export const isInputError = () => false;
export const isActionError = (e) => e instanceof ActionError;
