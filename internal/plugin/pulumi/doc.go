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
// (the URN, the random seed and the checked inputs) travels in the
// provider's private bytes, so the engine stores it without knowing about
// Pulumi. Parameterize, Construct (component resources), Call and
// StreamInvoke are not supported yet.
package pulumi
