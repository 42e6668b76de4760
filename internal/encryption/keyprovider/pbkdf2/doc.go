// Package pbkdf2 is the pbkdf2 key provider: keys derived from a long
// passphrase (or a chained key provider's keys) with PBKDF2, a random salt
// stored beside the data. Its arguments, limits, defaults and metadata are
// OpenTofu's, so data either tool encrypted is readable by the other.
package pbkdf2
