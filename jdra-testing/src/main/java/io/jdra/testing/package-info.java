package io.jdra.testing;
