// Package web serves the control plane's web view: the page built from the
// top-level web/ folder (embedded from dist/), and the HTTP routes it
// reads. Records reach the page live over server-sent events from the
// store's WatchList, with the reconciler's run progress beside them; no
// route polls. Every route, the page's files included, checks the same
// bearer tokens and tenancy grants as the gRPC ResourceService, and is
// served with the same TLS configuration.
package web
