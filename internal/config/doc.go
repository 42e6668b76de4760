// Package config loads Terraform-language configurations — .tf, .tf.json,
// .tofu and .tofu.json files, with override files — into plain structs that
// keep expressions and bodies unevaluated for later, and checks what can be
// checked without evaluating anything: names, duplicates, meta-arguments and
// references to things that do not exist.
package config
