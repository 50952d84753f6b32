package io.jdra.cel;
