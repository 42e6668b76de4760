check "c" {
}
