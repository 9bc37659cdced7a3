# Varnish in front of the site (docs/decisions/024, README "A CDN or caching proxy in front").
# Tested by tests/e2e/varnish.spec.ts with Debian's varnish 7.1:
#   varnishd -F -a :6081 -f /path/to/docs/deploy/varnish.vcl -p vcl_path=/etc/varnish:/path/to/docs/deploy -s malloc,256m
# The backends (one instance, or several on PostgreSQL behind a round-robin director) live in
# agency-backends.vcl, found on vcl_path: copy docs/deploy/agency-backends.vcl to /etc/varnish and edit it.
#
# What it does:
#  - caches what the site marks shareable (Cache-Control: public, s-maxage=…), for s-maxage, serving it
#    stale for stale-while-revalidate while it refetches; everything "private, no-store" or setting a
#    cookie goes to the site every time;
#  - admin, dashboard, account, auth and API addresses always go to the site (pass), whatever they answer;
#  - PURGE (or BAN) with a Surrogate-Key request header, from the purgers ACL only, drops every stored page
#    carrying one of the tags: the site sends it on every content or settings change (CDN_PURGE=varnish,
#    CDN_PURGE_URL=http://<this varnish>/);
#  - X-Cache (HIT/MISS) and X-Cache-Hits on every answer; Age is Varnish's own.
vcl 4.1;

import std;

include "agency-backends.vcl";

# Who may purge: the site's own servers. Anyone else's BAN is refused.
acl purgers {
  "127.0.0.1";
  "::1";
}

# Proxies in front of Varnish (nginx terminating TLS) whose X-Real-IP is kept; anyone else's is replaced.
acl front_proxies {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "BAN" || req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Purging is not allowed from this address."));
    }
    # Tags are the site's route-cache tags (letters, digits, - _ : .), space-separated.
    if (req.http.Surrogate-Key !~ "^ *[A-Za-z0-9_:.-]+( +[A-Za-z0-9_:.-]+)* *$") {
      return (synth(400, "A Surrogate-Key header with the tags to purge is required."));
    }
    set req.http.X-Purge-Tags = regsuball(regsuball(req.http.Surrogate-Key, "^ +| +$", ""), " +", "|");
    # A ban expression's argument may hold no space: \s stands for the separator.
    if (!std.ban("obj.http.Surrogate-Key ~ (^|\s)(" + req.http.X-Purge-Tags + ")(\s|$)")) {
      return (synth(500, "Ban failed: " + std.ban_error()));
    }
    return (synth(200, "Banned."));
  }

  # The client address the site trusts (TRUSTED_PROXY_IP_HEADER=x-real-ip): Varnish sees the visitor.
  # Behind nginx, nginx sets it and Varnish keeps it (see docs/deploy/nginx.conf).
  if (!req.http.X-Real-IP || client.ip !~ front_proxies) {
    set req.http.X-Real-IP = client.ip;
  }

  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # Personal addresses: never looked up, never stored (the site answers them "private, no-store" too).
  if (req.url ~ "^/(admin|dashboard|auth|verify-email|claim-admin|api|_actions|_server-islands)(/|\?|$)" || req.url ~ "[?&](_action|preview)=") {
    return (pass);
  }
  # Public pages are the same for everyone (the navbar's account area is an island), so a visitor's cookie
  # does not stop a lookup. A response that is not shareable (a cookie set, "private") is never stored.
  if (req.http.Authorization) {
    return (pass);
  }
  return (hash);
}

sub vcl_backend_response {
  # Keep an unreachable or failing site from being stored; 5xx answers are never kept.
  if (beresp.status >= 500) {
    set beresp.uncacheable = true;
    set beresp.ttl = 0s;
    return (deliver);
  }
}

sub vcl_backend_error {
  # One instance gone (kill -9, restart): an idempotent request is tried once more, on the next backend.
  if (bereq.retries < 1 && (bereq.method == "GET" || bereq.method == "HEAD")) {
    return (retry);
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
  set resp.http.X-Cache-Hits = obj.hits;
  # The purge tags are for caches, not visitors (the big CDNs strip them too).
  unset resp.http.Surrogate-Key;
  unset resp.http.Cache-Tag;
  unset resp.http.CDN-Tag;
}
