package io.jdra.cel;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A bounded LRU cache of compilation results keyed by options and expression. Compiling happens
 * outside the lock; two threads compiling the same new expression at once both compile it and one
 * result wins, which is harmless because results are immutable and equal.
 */
final class CompileCache {
  private record Key(CompilerOptions options, String expression) {}

  private final int capacity;
  private final LinkedHashMap<Key, CompilationResult> entries;

  CompileCache(int capacity) {
    this.capacity = capacity;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, CompilationResult> eldest) {
            return size() > CompileCache.this.capacity;
          }
        };
  }

  CompilationResult get(
      CompilerOptions options, String expression, Supplier<CompilationResult> compile) {
    Key key = new Key(options, expression);
    synchronized (entries) {
      CompilationResult hit = entries.get(key);
      if (hit != null) {
        return hit;
      }
    }
    CompilationResult fresh = compile.get();
    synchronized (entries) {
      CompilationResult raced = entries.putIfAbsent(key, fresh);
      return raced != null ? raced : fresh;
    }
  }

  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }
}
