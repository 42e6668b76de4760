// Package inputvars gathers the values of a root module's input variables
// as a run is given them — -var and -var-file options, terraform.tfvars and
// *.auto.tfvars files, TF_VAR_ environment variables, answers at a prompt —
// and resolves them against the variables' declarations, in OpenTofu's
// order of precedence and with its diagnostics. Commands, the reconciler
// and the test runner all take their values from here, and EngineValues
// hands them to the engine.
package inputvars
