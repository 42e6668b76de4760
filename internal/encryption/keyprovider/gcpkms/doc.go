// Package gcpkms is the gcp_kms key provider: each run's writes get a new
// random key of key_length bytes, encrypted by a Google Cloud KMS key and
// stored beside the data; reading asks KMS to decrypt it. Authentication
// takes the GCS backend's arguments and environment variables, as
// OpenTofu's key provider does.
package gcpkms
