// Package grpcprovider implements providers.Interface over the Terraform
// plugin protocol, versions 5 and 6. The adapter speaks protocol 6 messages;
// a protocol 5 provider is reached through a client that carries the same
// messages over the protocol 5 service, so schema decoding, value and
// diagnostic conversion exist once for both versions.
package grpcprovider
