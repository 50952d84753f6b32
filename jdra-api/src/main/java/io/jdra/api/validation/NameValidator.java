package io.jdra.api.validation;

import java.util.List;

/**
 * Checks an object name as upstream's {@code ValidateNameFunc}: returns the problems with {@code
 * name} (empty = valid); with {@code prefix}, the name is a {@code generateName} prefix and may end
 * with a dash.
 */
@FunctionalInterface
public interface NameValidator {
  /** DNS subdomain names (most kinds). */
  NameValidator DNS_SUBDOMAIN = NameValidation::nameIsDnsSubdomain;

  /** DNS label names. */
  NameValidator DNS_LABEL = NameValidation::nameIsDnsLabel;

  /** The problems with {@code name}, empty when it is valid. */
  List<String> validate(String name, boolean prefix);
}
