# The site's instances, included by docs/deploy/varnish.vcl. One instance: keep site1 and remove site2
# (and its add_backend line). Several instances on one PostgreSQL: one backend each, round robin; an
# instance failing its health probe (/healthz) is skipped.
import directors;

backend site1 {
  .host = "127.0.0.1";
  .port = "4321";
  .probe = { .url = "/healthz"; .interval = 2s; .timeout = 1s; .window = 3; .threshold = 2; }
}

backend site2 {
  .host = "127.0.0.1";
  .port = "4322";
  .probe = { .url = "/healthz"; .interval = 2s; .timeout = 1s; .window = 3; .threshold = 2; }
}

sub vcl_init {
  new site = directors.round_robin();
  site.add_backend(site1);
  site.add_backend(site2);
}

sub vcl_recv {
  set req.backend_hint = site.backend();
}

sub vcl_backend_fetch {
  # A retry (varnish.vcl vcl_backend_error) asks the director again: the next instance.
  set bereq.backend = site.backend();
}
