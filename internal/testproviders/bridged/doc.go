// Package bridged makes Pulumi providers of the framework test provider
// (tpf) and the SDKv2 test provider (tpsdk) with Pulumi's Terraform bridge,
// the way pulumi-random and pulumi-tls are made from their Terraform
// providers: the package schema is generated from the Terraform schema and
// the bridge serves pulumirpc in front of the wrapped provider.
//
// Real bridged providers generate the schema at build time (tfgen) and
// embed it; these generate it in memory when they start, so a change to
// tpf or tpsdk can never leave a stale schema behind.
package bridged
