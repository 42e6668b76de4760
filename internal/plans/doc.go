// Package plans is the plan model: what a plan proposes to do to each
// resource instance and output, why, and under which conditions (mode,
// variables, targets, excludes, forced replacements, the prior records it
// was made from). Changes exist in two forms: decoded, holding cty values
// the engine works with, and encoded ("Src"), holding msgpack DynamicValues
// so that a large plan need not keep every value decoded in memory.
//
// Package planfile reads and writes this model as a plan file.
package plans
