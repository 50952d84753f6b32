package io.jdra.cli.logging;

/** Values of {@code --logging-format}, as in Kubernetes components. */
public enum LogFormat {
  // Lower case: these are the flag values users type and see in --help.
  text,
  json
}
