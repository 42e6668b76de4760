// Package pulumi is the Pulumi test provider "tpulumi": a resource provider
// written directly against pulumirpc.ResourceProviderServer with the Pulumi
// SDK, which Terrane's tests launch as the real process
// pulumi-resource-tpulumi. Its objects are JSON files in the test's cloud
// directory (package cloud), so tests can see, edit and remove them.
//
// Schema (package "tpulumi", version 0.1.0):
//
//   - resource tpulumi:index:Thing — inputs name (required, replaceOnChanges),
//     content, sizeClass (Check fills in "small"), nonce (Check fills it in from
//     the resource's random seed), tags (map of strings), ports (array of
//     integers), password (secret), settings (object tpulumi:index:Settings
//     with mode, an enum of "auto"/"manual", and level), fail, source (an
//     asset; the stored copy carries its hash); outputs the
//     inputs plus contentLength, revision and createdAt. Stored as
//     ROOT/tpulumi_thing/<id>.json.
//   - resource tpulumi:legacy/classicThing:ClassicThing — a Thing under a
//     token whose derived name differs from the Terraform name GetMapping
//     ("terraform" key, as a bridged provider answers) gives it:
//     tpulumi_classic_thing. Stored as ROOT/tpulumi_classicthing/<id>.json.
//   - function tpulumi:index:getThing — input id, outputs name, content and
//     sizeClass of a stored Thing.
//   - function tpulumi:index:listThings — input prefix; Invoke answers with
//     the first Thing whose name starts with it, StreamInvoke streams one
//     answer (name, content) per such Thing in name order.
//   - component tpulumi:index:Pair — Construct registers, through the
//     engine's resource monitor, the component and two Things as its
//     children: PREFIX-left (content leftContent; leftOptions
//     "replaceOnContent" or "ignoreContent" sets that registration option)
//     and, unless dropRight, rightName (default PREFIX-right; content
//     rightContent, fail rightFail). With foreignChild it also registers an
//     other:index:Widget, a type of another package. Outputs leftId,
//     rightId, leftLength (the left child's contentLength) and leftApiKey
//     (its apiKey, a run-time secret). Method
//     describe (function tpulumi:index:Pair/describe, served by Call):
//     the __self__ resource reference's name, separator (default " ") and
//     type.
//   - component tpulumi:index:Duo — the same idea built with the Go SDK's
//     programming model (pulumiprovider.Construct, pulumi.Context): Things
//     PREFIX-first (content) and PREFIX-second; outputs firstLength and
//     secondName. Method shout (tpulumi:index:Duo/shout, served by the Go
//     SDK's Call): text in capitals, " from ", and the __self__ URN.
//
// Thing's output apiKey ("key-" + name) is returned as a secret output
// value though the schema does not declare it secret, as providers decide
// secrets at run time. The provider accepts secrets and output values
// (Handshake and Configure); Check logs "check received output values for
// KEYS" and "check received secrets for KEYS" (Invoke: "invoke received
// secrets for KEYS") through the engine when inputs arrive as output
// values or contain secrets.
//
// StreamInvoke is missing from the SDK's generated service, so the
// provider serves the ResourceProvider service with it added (stream.go)
// instead of through pulumiprovider.Main.
//
// Parameterize (args ["NAME"], or the value form with NAME as its bytes)
// makes the provider the sub-package NAME at version 1.0.0: the same
// schema renamed, with resource NAME:index:Gadget (stored under
// NAME_gadget) and function NAME:index:getGadget, and a parameterization
// whose parameter is NAME.
//
// Configuration: rootDir (else $TESTCLOUD_DIR) and failConfigure (Configure
// fails with that text; "missing-keys" fails with ConfigureErrorMissingKeys
// naming tpulumi:config:rootDir and tpulumi:apiToken).
//
// Diff answers with a detailed diff; a new name replaces the thing with
// deleteBeforeReplace set, since names are unique in the cloud.
//
// Failure switches (input fail): "check" (Check reports a failure on fail),
// "create", "update", "read" and "delete" (those calls fail; update, read and
// delete look at the stored object's switch), "partial" (Create writes the
// object, then fails with ErrorResourceInitFailed carrying it), "hang"
// (Create blocks until the call or the provider is cancelled).
//
// Environment switches for launch tests: TPULUMI_BAD_PORT=1 prints a
// malformed port line; TPULUMI_EXIT_EARLY=1 exits before printing any;
// TPULUMI_HEALTH_INTERVAL=DURATION checks the engine's health that often
// (default 5m; a failed check ends the provider, as in the SDK); TPULUMI_NO_HANDSHAKE=1 answers Handshake as
// unimplemented, so hosts fall back to Configure's answers.
package pulumi
