package io.jdra.apiserver;

import io.jdra.apiserver.rest.PatcherPatching;
import io.jdra.apiserver.rest.Patching;

/** The PATCH support used unless options say otherwise. */
final class DefaultPatching {
  private static final Patching PATCHER = new PatcherPatching();

  private DefaultPatching() {}

  static Patching get() {
    return PATCHER;
  }
}
