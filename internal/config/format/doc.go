// Package format rewrites native-syntax configuration source into the
// canonical style: hclwrite's layout plus the normalizations users expect
// from "fmt" (interpolation-only strings unwrapped, legacy type keywords
// spelled out, block labels quoted).
package format
