//go:build race

package e2etest

// raceEnabled reports that the test binary is built with the race
// detector, and so is the terrane binary the tests run.
const raceEnabled = true
