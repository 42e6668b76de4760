this file is shadowed by main.tofu and is not valid HCL {{{
