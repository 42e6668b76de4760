// Package awskms is the aws_kms key provider: AWS KMS generates a data key
// for each run's writes (GenerateDataKey) and gives it back from its
// encrypted form stored beside the data (Decrypt). Authentication takes
// the S3 backend's arguments, through the library the S3 backend and
// OpenTofu use, so it behaves as OpenTofu's key provider does.
package awskms
