package addrs

// InputVariable is a variable block within a module, referenced as var.NAME.
type InputVariable struct {
	Name string
}

func (v InputVariable) String() string { return "var." + v.Name }

// Absolute returns the address of v in the given module instance.
func (v InputVariable) Absolute(module ModuleInstance) AbsInputVariableInstance {
	return AbsInputVariableInstance{Module: module, Variable: v}
}

// AbsInputVariableInstance is an input variable in one module instance.
type AbsInputVariableInstance struct {
	Module   ModuleInstance
	Variable InputVariable
}

func (v AbsInputVariableInstance) String() string {
	if v.Module.IsRoot() {
		return v.Variable.String()
	}
	return v.Module.String() + "." + v.Variable.String()
}

type absInputVariableKey string

func (absInputVariableKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (v AbsInputVariableInstance) UniqueKey() UniqueKey { return absInputVariableKey(v.String()) }

// LocalValue is a named value from a locals block, referenced as local.NAME.
type LocalValue struct {
	Name string
}

func (v LocalValue) String() string { return "local." + v.Name }

// OutputValue is an output block within a module.
type OutputValue struct {
	Name string
}

func (v OutputValue) String() string { return "output." + v.Name }

func (v OutputValue) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (v OutputValue) UniqueKey() UniqueKey { return v }

// Absolute returns the address of v in the given module instance.
func (v OutputValue) Absolute(module ModuleInstance) AbsOutputValue {
	return AbsOutputValue{Module: module, OutputValue: v}
}

// AbsOutputValue is an output value of one module instance, such as
// module.net["a"].output.subnet_id.
type AbsOutputValue struct {
	Module      ModuleInstance
	OutputValue OutputValue
}

func (v AbsOutputValue) String() string {
	if v.Module.IsRoot() {
		return v.OutputValue.String()
	}
	return v.Module.String() + "." + v.OutputValue.String()
}

type absOutputValueKey string

func (absOutputValueKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (v AbsOutputValue) UniqueKey() UniqueKey { return absOutputValueKey(v.String()) }

// ModuleCall is a module block within a module, referenced as module.NAME.
type ModuleCall struct {
	Name string
}

func (c ModuleCall) String() string { return "module." + c.Name }

// Instance returns the address of one instance of the call.
func (c ModuleCall) Instance(key InstanceKey) ModuleCallInstance {
	return ModuleCallInstance{Call: c, Key: key}
}

// ModuleCallInstance is one instance of a module call, module.NAME[KEY].
type ModuleCallInstance struct {
	Call ModuleCall
	Key  InstanceKey
}

func (c ModuleCallInstance) String() string { return c.Call.String() + instanceKeyString(c.Key) }

// ModuleCallInstanceOutput is an output of one instance of a module call,
// as referenced by module.NAME[KEY].OUTPUT in the calling module.
type ModuleCallInstanceOutput struct {
	Call ModuleCallInstance
	Name string
}

func (o ModuleCallInstanceOutput) String() string { return o.Call.String() + "." + o.Name }

// Check is a check block within a module.
type Check struct {
	Name string
}

func (c Check) String() string { return "check." + c.Name }

func (c Check) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (c Check) UniqueKey() UniqueKey { return c }
