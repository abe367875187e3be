# Script mode: cmake -DPYFTSUBSET=<pyftsubset> -DFONT=<ipaexg.ttf> -DSITE=<site dir> -DWORK=<dir>
#                    -DTEXTS="ja.json|catalog/a.json|..." -P font_subset.cmake
# The page's Japanese glyphs, fetched only when Japanese is chosen (gpuplan/i18n.h):
#   font-ja.ttf       the characters of the message table and the catalog, with the kana, the
#                     CJK punctuation and the full-width forms (a reader's IME types those);
#   font-ja-full.ttf  every glyph, fetched only when the reader types a character outside it.
# Both are Derived Programs of IPAex Gothic under the IPA Font License Agreement v1.0 (Debian's
# fonts-ipaexfont-gothic): its Article 3.1 asks that the license travel with them, that their
# names do not carry the original's (the name table is dropped: no font or file name says "IPA"),
# and that a reader be told how to put the original back (font-ja-LICENSE.txt says it).
string(REPLACE "|" ";" texts "${TEXTS}")
set(all "")
foreach(path IN LISTS texts)
  file(READ "${path}" text)
  string(APPEND all "${text}")
endforeach()
file(WRITE "${WORK}/font-ja-chars.txt" "${all}")
set(common --no-hinting --desubroutinize --layout-features= --name-IDs= --name-languages= --drop-tables+=GSUB,GPOS,GDEF,vhea,vmtx,VORG
           --notdef-outline)
execute_process(
  COMMAND "${PYFTSUBSET}" "${FONT}" "--text-file=${WORK}/font-ja-chars.txt"
          "--unicodes=U+0020-007E,U+3000-303F,U+3041-3096,U+3099-30FF,U+FF01-FF9F" ${common}
          "--output-file=${SITE}/font-ja.ttf"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pyftsubset failed (${rc}) on ${FONT}")
endif()
execute_process(COMMAND "${PYFTSUBSET}" "${FONT}" "--unicodes=*" ${common} "--output-file=${SITE}/font-ja-full.ttf"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pyftsubset failed (${rc}) on ${FONT}")
endif()
file(READ "${LICENSE}" license)
file(WRITE "${SITE}/font-ja-LICENSE.txt"
"font-ja.ttf and font-ja-full.ttf are subsets of IPAex Gothic (version 00401, Debian package
fonts-ipaexfont-gothic), made by pyftsubset (fonttools) with the name table, hinting and layout
tables removed, for gpuplan's Japanese user interface. They are Derived Programs licensed under
the IPA Font License Agreement v1.0 below. To use the original instead, download IPAex Gothic
(ipaexg.ttf) from https://moji.or.jp/ipafont/ and put it in place of both files.

${license}")
file(COPY_FILE "${MESSAGES}" "${SITE}/i18n-ja.json" ONLY_IF_DIFFERENT)
