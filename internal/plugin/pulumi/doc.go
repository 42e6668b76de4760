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
// (the URN, the random seed, the checked inputs, the outputs as the
// provider returned them and which came back secret) travels in the
// provider's private bytes, so the engine stores it without knowing about
// Pulumi.
//
// The calls follow Pulumi's engine where Terraform's protocol has no rule:
//
//   - An object's outputs go back to Read, Diff, Update and Delete verbatim,
//     as the provider last returned them: a bridged resource's "id" is an
//     ordinary output, and the bridge rebuilds the Terraform state from
//     outputs (its "__meta", its raw state delta, the nulls it returned)
//     that no attribute carries.
//   - A Diff that finds no change is Pulumi's "same" step: the plan keeps
//     the prior object, taking the configured value only for an input the
//     object has no value for (an object imported without its inputs), and
//     applying it records the configuration without calling the provider.
//   - A preview is the provider's guess, not a promise: an apply result that
//     differs from it is recorded and logged, as Terraform treats legacy SDK
//     providers. An update's preview does not turn outputs the object never
//     had into "known after apply".
//   - lifecycle.ignore_changes reaches Diff and Update as ignoreChanges.
//   - An error status is the provider's answer: the operation failed and,
//     unless it carries ErrorResourceInitFailed (the object exists but did
//     not finish; it is recorded tainted), created or changed nothing. Only
//     a call whose answer never came (cancelled, crashed, connection lost)
//     leaves its outcome unknown for the engine's recovery.
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
// # Components
//
// A schema resource with isComponent is a resource type like any other
// (tpulumi:index:Pair: tpulumi_pair), built by Construct. For each call
// the adapter serves a ResourceMonitor on a loopback port of its own;
// the provider registers the component and its children there, and each
// child is handled as Pulumi's engine would: Check (with the prior inputs
// and a seed derived from the component's seed and the child's URN), Diff
// against the prior child, then a preview (planning, Construct's dry run)
// or Create, Update or a replacement (applying). Children must be
// resources of the component's own package: another package's child is
// refused naming the component and the type. Children no longer
// registered are deleted after Construct returns, last registered first.
// A component has no object of its own, so deleting it deletes its
// children in reverse order, and refreshing it reads each child (a child
// whose object is gone is dropped and created again by the next apply).
// Construct reads the prior children first too, even with
// -refresh=false: an apply works from the stored component, and a child
// missing from the cloud must be created again, not updated.
//
// The component's private data lists every child (URN, type, name, ID,
// inputs, outputs, in registration order): it is all later calls need.
// Its state is its inputs, the outputs it registers (unknown in a plan
// where the dry run does not know them), its URN as id, and the computed
// attribute children: by child name, the type, URN, ID (unknown while the
// child is to be created or replaced) and the inputs Check returned as
// JSON with secrets redacted, which is what a plan shows changing inside
// the component. A plan is a no-op when no child changes and no known
// output differs. Apply responses list the children
// (providers.ComponentChild), which the engine records as ComponentChild
// records beside the component. When a child fails, the children that
// exist are returned with the error, so they are recorded, not lost.
//
// Components' methods (the component's methods in the schema) are
// provider functions named after the component type without the package,
// then the method: Pair's describe is provider::tpulumi::pair_describe.
// The first argument is the component (its id, the URN, is sent as the
// __self__ resource reference), the others are the method's arguments in
// name order (null leaves one out), and the result is an object of the
// method's outputs. While the component is unknown (not created yet), so
// is the result. Call gets no resource monitor: methods that register
// resources are not supported.
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
// Pulumi values carry no types, so an answer is given the types of the
// value it answers for wherever the two agree (see alignTo): an unknown
// configured as a string stays a string, a list sent as an Any value comes
// back a list, and a list holding an unknown that a bridged provider's
// preview collapses into one unknown stays the configured list. A null and
// an empty collection, which the wire cannot tell apart, are no change.
// An input the provider's outputs leave out takes its value from the
// object's inputs.
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
