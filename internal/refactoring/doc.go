// Package refactoring turns a configuration's moved blocks into checked move
// statements and applies them to a prior state, so that objects tracked at
// an old address are planned at their new one. It decides where objects go
// and which statements are invalid; calling providers (cross-type moves)
// and writing records are the engine's.
package refactoring
