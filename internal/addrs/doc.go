// Package addrs defines the typed addresses Terrane uses to name things:
// provider sources and configurations, modules and module instances,
// resources and their instances, variables, locals, outputs and the other
// objects an expression can refer to. Every address prints with String and
// parses back to an equal value; maps of addresses are keyed by UniqueKey.
package addrs
