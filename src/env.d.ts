/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the middleware on guarded paths when the session cookie names a live session. */
    user?: import('./server/guards/session').RequestUser;
    session?: import('./server/guards/session').RequestSession;
  }
}

/** A module to start as a Node worker thread: its URL (src/build/node-worker-entries.ts). */
declare module '*?node-worker' {
  const url: URL;
  export default url;
}
