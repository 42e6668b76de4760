variable "other" {
  default = 1
}

variable "size" {
  type = number
  validation {
    condition     = var.other > 0
    error_message = "Other must be positive."
  }
}
