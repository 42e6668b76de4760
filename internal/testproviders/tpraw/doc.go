// Package tpraw is a test provider written directly on terraform-plugin-go's
// tfprotov6 server, for what the higher SDKs cannot express: nested blocks
// with MAP and GROUP nesting, and planned unknown values carrying
// refinements (encoded with go-cty's msgpack, since tftypes has no
// refinements). Its resource tpraw_group is documented in the module's
// README.md.
package tpraw
