package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Kind;
import io.jdra.apiserver.patch.Schema.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A field's remembered object type and element field are what working them out gives, for every
 * field of every type the schema describes, down through map values and list elements.
 */
class SchemaFieldMemoTest {
  @Test
  void rememberedTypesAreTheResolvedOnes() {
    Deque<Field> todo = new ArrayDeque<>();
    for (Type t : Schema.types()) {
      todo.addAll(t.fields.values());
      if (t.mapValue != null) {
        todo.add(t.mapValue);
      }
    }
    assertThat(todo).hasSizeGreaterThan(1_000);
    Set<Field> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    int maps = 0;
    while (!todo.isEmpty()) {
      Field f = todo.pop();
      if (!seen.add(f) || seen.size() > 100_000) {
        continue;
      }
      for (int i = 0; i < 2; i++) { // the first call remembers, the second reads the memo
        assertSameType(f.objectType(), f.resolveObjectType(), f);
        assertThat(f.elementField()).as("%s", f).isEqualTo(f.resolveElementField());
      }
      if (f.kind() == Kind.MAP) {
        maps++;
      }
      todo.add(f.elementField());
      if (f.objectType().mapValue != null) {
        todo.add(f.objectType().mapValue);
      }
    }
    assertThat(maps).isPositive();
  }

  @Test
  void equalityIsThatOfTheDescriptionAlone() {
    Field f = Schema.type("core/v1.PodSpec").field("containers");
    Field copy =
        new Field(
            f.name(),
            f.kind(),
            f.elem(),
            f.strategies(),
            f.mergeKey(),
            f.listType(),
            f.listKeys(),
            f.atomic(),
            f.zeroPresent(),
            f.scalar());
    f.elementField();
    assertThat(copy).isEqualTo(f).hasSameHashCodeAs(f);
    Set<Field> set = new HashSet<>(Set.of(f));
    assertThat(set).contains(copy);
  }

  private static void assertSameType(Type memo, Type resolved, Field f) {
    if (f.kind() == Kind.MAP) {
      // a map's type is built from the field: equal parts, the memo one built once
      assertThat(memo.name).isEqualTo(resolved.name);
      assertThat(memo.atomic).as("%s", f).isEqualTo(resolved.atomic);
      assertThat(memo.fields).isEqualTo(resolved.fields);
      assertThat(memo.mapValue).as("%s", f).isEqualTo(resolved.mapValue);
      assertThat(f.objectType()).isSameAs(memo);
    } else {
      assertThat(memo).as("%s", f).isSameAs(resolved);
    }
  }
}
