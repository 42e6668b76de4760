// Package keyprovider defines what a key provider of the encryption block
// is (OpenTofu's key_provider blocks): a type that decodes its block into a
// Provider, which gives keys for encrypting new data and, from the metadata
// stored beside encrypted data, keys for decrypting it. The key provider
// types themselves live in the packages below this one.
package keyprovider
