// Command terrane is the Terrane command-line interface.
package main

func main() {}
