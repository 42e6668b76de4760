// Package stateedit works out the record changes behind the state editing
// commands — selecting instances by address, moving, removing, replacing a
// provider and importing a state file — as recordstore.InstanceChange lists
// that compare-and-swap against the snapshot they were computed from, so a
// concurrent change makes the whole edit fail instead of being overwritten.
package stateedit
