// Package tfvalue converts terraform-plugin-go values to and from the JSON
// the test cloud stores, using Terraform's JSON state encoding: dynamically
// typed values are wrapped as {"type": ..., "value": ...} and numbers keep
// their full precision.
package tfvalue
