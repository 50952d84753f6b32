package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InternedTest {
  @Test
  void givesTheStringTablesInstanceForFreshCopies() {
    // More distinct strings than the map holds, each asked for twice through a fresh copy, so that
    // both the first lookup, the cached one and the ones after a clear are checked.
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < Interned.MAX * 2 + 7; i++) {
        String s = new String(("interned-test-" + i).toCharArray());
        assertThat(Interned.of(s)).isSameAs(s.intern());
        String again = new String(s.toCharArray());
        assertThat(Interned.of(again)).isSameAs(again.intern()).isEqualTo(s);
      }
    }
  }

  @Test
  void anAlreadyCanonicalStringIsItself() {
    String s = "default";
    assertThat(Interned.of(new String(s.toCharArray()))).isSameAs(s);
    assertThat(Interned.of(s)).isSameAs(s);
  }
}
