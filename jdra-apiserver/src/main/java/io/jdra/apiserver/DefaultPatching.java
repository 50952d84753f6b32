package io.jdra.apiserver;

import io.jdra.apiserver.rest.Patching;

/** The PATCH support used unless options say otherwise. */
final class DefaultPatching {
  private DefaultPatching() {}

  static Patching get() {
    return Patching.NONE;
  }
}
