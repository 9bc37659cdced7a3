/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the middleware on guarded paths when the session cookie names a live session. */
    user?: import('./server/guards/session').RequestUser;
    session?: import('./server/guards/session').RequestSession;
  }
}
