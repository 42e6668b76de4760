// Package encrypted is a store.Backend that encrypts the data of the
// records written through it and decrypts the data of those read through
// it, with a Cipher, so the backend below (SQLite, etcd, a remote serve)
// only ever holds encrypted data. Record IDs, owners, versions and status
// stay as they are, so listing and watching work without keys.
package encrypted
