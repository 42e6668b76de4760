package command

// Help texts of the workspace commands, in OpenTofu's words with Terrane's
// names: what `terrane COMMAND -help` prints, before any list of
// subcommands.

var helpTextsWorkspace = map[string]string{
	"force-unlock": `Usage: terrane [global options] force-unlock [options] LOCK_ID

  Manually unlock the state for the defined configuration.

  This will not modify your infrastructure. This command removes the lock on the
  state for the current workspace. The behavior of this lock is dependent
  on the backend being used. Local state files cannot be unlocked by another
  process.

Options:

  -force                 Don't ask for input for unlock confirmation.

  -var 'foo=bar'         Set a value for one of the input variables in the root
                         module of the configuration. Use this option more than
                         once to set more than one variable.

  -var-file=filename     Load variable values from the given file, in addition
                         to the default files terraform.tfvars and *.auto.tfvars.
                         Use this option more than once to include more than one
                         variables file.

  -json                  Produce output in a machine-readable JSON format, 
                         suitable for use in text editor integrations and other 
                         automated systems. Always disables color.

  -json-into=out.json    Produce the same output as -json, but sent directly
                         to the given file. This allows automation to preserve
                         the original human-readable output streams, while
                         capturing more detailed logs for machine analysis.`,

	"workspace": `Usage: terrane [global options] workspace

  new, list, show, select and delete Terrane workspaces.`,

	"workspace delete": `Usage: terrane [global options] workspace delete [options] NAME

  Delete a Terrane workspace


Options:

  -force               Remove a workspace even if it is managing resources.
                       Terrane can no longer track or manage the workspace's
                       infrastructure.

  -lock=false          Don't hold a state lock during the operation. This is
                       dangerous if others might concurrently run commands
                       against the same workspace.

  -lock-timeout=0s     Duration to retry a state lock.

  -var 'foo=bar'       Set a value for one of the input variables in the root
                       module of the configuration. Use this option more than
                       once to set more than one variable.

  -var-file=filename   Load variable values from the given file, in addition
                       to the default files terraform.tfvars and *.auto.tfvars.
                       Use this option more than once to include more than one
                       variables file.
    
  -json                The output of the command is printed in json format.

  -json-into=out.json  Produce the same output as -json, but sent directly
                       to the given file. This allows automation to preserve
                       the original human-readable output streams, while
                       capturing more detailed logs for machine analysis.`,

	"workspace list": `Usage: terrane [global options] workspace list [options]

  List Terrane workspaces.

Options:

  -var 'foo=bar'       Set a value for one of the input variables in the root
                       module of the configuration. Use this option more than
                       once to set more than one variable.

  -var-file=filename   Load variable values from the given file, in addition
                       to the default files terraform.tfvars and *.auto.tfvars.
                       Use this option more than once to include more than one
                       variables file.
    
  -json                The output of the command is printed in json format.

  -json-into=out.json  Produce the same output as -json, but sent directly
                       to the given file. This allows automation to preserve
                       the original human-readable output streams, while
                       capturing more detailed logs for machine analysis.`,

	"workspace new": `Usage: terrane [global options] workspace new [OPTIONS] NAME

  Create a new Terrane workspace.

Options:

    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.

    -lock-timeout=0s    Duration to retry a state lock.

    -state=path         Copy an existing state file into the new workspace.


    -var 'foo=bar'      Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

    -var-file=filename  Load variable values from the given file, in addition
                        to the default files terraform.tfvars and *.auto.tfvars.
                        Use this option more than once to include more than one
                        variables file.
    
    -json               The output of the command is printed in json format.

    -json-into=out.json Produce the same output as -json, but sent directly
                        to the given file. This allows automation to preserve
                        the original human-readable output streams, while
                        capturing more detailed logs for machine analysis.`,

	"workspace select": `Usage: terrane [global options] workspace select [options] NAME

  Select a different Terrane workspace.

Options:

    -or-create=false    Create the Terrane workspace if it doesn't exist.

    -var 'foo=bar'       Set a value for one of the input variables in the root
                         module of the configuration. Use this option more than
                         once to set more than one variable.

    -var-file=filename   Load variable values from the given file, in addition
                         to the default files terraform.tfvars and *.auto.tfvars.
                         Use this option more than once to include more than one
                         variables file.
    
    -json                The output of the command is printed in json format.

    -json-into=out.json  Produce the same output as -json, but sent directly
                         to the given file. This allows automation to preserve
                         the original human-readable output streams, while
                         capturing more detailed logs for machine analysis.`,

	"workspace show": `Usage: terrane [global options] workspace show

  Show the name of the current workspace.`,
}
