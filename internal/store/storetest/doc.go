// Package storetest is the conformance suite for store.Backend: Run checks
// the CAS, listing, ownership, watch, batch and close rules that every
// backend must keep, so the layers above can rely on any of them alike.
package storetest
