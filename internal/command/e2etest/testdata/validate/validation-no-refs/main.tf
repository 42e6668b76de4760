variable "size" {
  type = number
  validation {
    condition     = true
    error_message = "Never."
  }
}
