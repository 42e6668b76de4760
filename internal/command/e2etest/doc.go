// Package e2etest holds the end-to-end tests of the terrane binary: each
// test builds a project directory, runs the binary there as a user would,
// with the working directory and the environment given to each process
// rather than taken from the test process, so that every test runs in
// parallel with the others. It has no code of its own outside its tests.
package e2etest
