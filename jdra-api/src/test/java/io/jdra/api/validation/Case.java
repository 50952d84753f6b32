package io.jdra.api.validation;

import java.util.List;
import java.util.function.Consumer;

/** One table row: a change to a valid base object and the exact errors it must cause. */
record Case<T>(String name, Consumer<T> change, List<String> expected) {
  static <T> Case<T> of(String name, Consumer<T> change, String... expected) {
    return new Case<>(name, change, List.of(expected));
  }

  @Override
  public String toString() {
    return name;
  }
}
