// Package pulumi hosts Pulumi resource providers (the pulumirpc
// ResourceProvider service) behind the protocol-neutral providers.Interface,
// so a .tf configuration uses them like Terraform-protocol providers.
//
// # Launching
//
// A provider is the executable pulumi-resource-NAME. Launch starts it with
// the address of an engine service Terrane serves (pulumirpc.Engine, whose
// Log messages go to Terrane's log, and the gRPC health service, whose
// answers keep SDK-built providers alive), reads the provider's port from
// the first line of its standard output and dials it. Attach connects to a
// provider started by hand instead (PULUMI_DEBUG_PROVIDERS="NAME:PORT"),
// telling it the engine address with the Attach call. Find locates the
// executable (see its documentation for the directory layouts).
//
// # Names
//
// Pulumi tokens become Terraform-style type names predictably: the package,
// the module's first path segment unless it is "index", and the type in
// snake case, joined with underscores. Functions become data sources the
// same way, with a leading "get" dropped. Property names go from camelCase
// to snake_case.
//
//	tpulumi:index:Thing        resource    tpulumi_thing
//	aws:s3/bucket:Bucket       resource    aws_s3_bucket
//	random:index/randomPet:RandomPet       random_random_pet
//	tpulumi:index:getThing     data source tpulumi_thing
//	aws:ec2/getAmi:getAmi      data source aws_ec2_ami
//	sizeClass, httpURL         attributes  size_class, http_url
//
// A provider that answers GetMapping for the "terraform" key (providers
// built on Pulumi's Terraform bridge) names its types itself: each token
// takes the Terraform name the mapping gives it, so configurations written
// for the bridged Terraform provider keep their type names.
//
// Every resource type gets a computed "id" attribute: the ID Pulumi's
// provider assigned.
//
// # Calls
//
// Planning runs Check (with a random seed chosen once per resource and
// kept) and Diff; when the provider supports previews, Create or Update
// with preview=true supplies the planned outputs, otherwise outputs that
// are not inputs are planned as unknown. Applying runs Check again with the
// now known configuration, then Create, Update or Delete. Read serves
// refresh and import; Invoke serves data sources. What later calls need
// (the URN, the random seed, the checked inputs and which outputs came
// back secret) travels in the provider's private bytes, so the engine
// stores it without knowing about Pulumi.
//
// StreamInvoke: the schema does not say which functions stream, so every
// function is also the data source NAME_stream (getThing: tpulumi_thing
// and tpulumi_thing_stream), whose arguments are the function's inputs and
// whose computed results attribute lists every answer of the stream, in
// order, until it ends. A data source is read once per plan, so collecting
// the stream is the one predictable meaning it can have; a provider that
// cannot stream the function answers Unimplemented, which is reported
// naming the data source.
//
// # Secrets and output values
//
// Secrets are decided at run time in Pulumi: any answer (Check, Create,
// Update, Read, Invoke, previews) may wrap a value as a secret, declared
// secret in the schema or not. Every such path is reported in the
// response's SensitivePaths, so the engine marks it sensitive in plans,
// state and outputs. Going out, schema-secret attributes and the values
// that came back secret last time are sent as secrets when the provider
// accepts secrets (Handshake or Configure). When it accepts outputs
// (accept_outputs), unknowns and secrets are sent as output values, as
// Pulumi's engine sends them; answers are always read keeping output
// values, so an output's known, secret and unknown flags are all honoured
// (its dependencies are not needed: the configuration orders resources).
//
// # Values
//
// Values cross with the SDK's property marshalling. Assets and archives
// are objects: the configuration sets one of text (assets only), path or
// uri, and the provider's answer fills in hash. A resource reference read
// into a string attribute is the referenced object's ID (a component's
// URN); elsewhere it is an object with urn and id. Pulumi numbers are
// 64-bit floats, so an integer beyond 2^53 that a float cannot hold is
// refused by name instead of rounded. An input that Check leaves unset is
// planned null, not unknown. Diff's deleteBeforeReplace reaches the engine
// as PlanResourceChangeResponse.DeleteBeforeReplace.
//
// # Sub-packages
//
// A provider that supports Parameterize (a bridge wrapping any Terraform
// provider, a provider generated from an API description) becomes one of
// its sub-packages when Config.Parameters is set: Launch calls
// Parameterize right after the handshake and the schema is the
// sub-package's, so its type names start with the sub-package name. The
// parameters change the schema, so they belong with the provider's
// requirement, not its configuration, and the local name is the
// sub-package name:
//
//	terraform {
//	  required_providers {
//	    widgets = { source = "pulumi/tpulumi", version = "~> 0.1", parameters = ["widgets"] }
//	  }
//	}
//
// init launches the base provider with the args, and records what
// Parameterization returns (name, version, the provider's encoding of the
// parameters); later runs replay that record with Parameterize's value
// form, so a run never re-resolves the sub-package.
package pulumi
