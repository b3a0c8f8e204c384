/* A complete engine in C (docs/engine-protocol.md): plays the first legal move, answers "-"
 * (no answer) at a Ricochet round, and reports one node per move in an info line.
 * Build: cc -O2 -o first_legal first_legal.c */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char line[1 << 16], first[256] = "-";
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "aep ", 4) == 0) {
            puts("id name first-legal-c");
            puts("option name greeting type string default hello");
            puts("aepok");
        } else if (strcmp(line, "isready") == 0) {
            puts("readyok");
        } else if (strncmp(line, "position ", 9) == 0) {
            strcpy(first, "-");
        } else if (strncmp(line, "legal ", 6) == 0) {
            sscanf(line + 6, "%255s", first);
        } else if (strncmp(line, "go", 2) == 0) {
            puts("info depth 1 nodes 1");
            printf("bestmove %s\n", first);
        } else if (strcmp(line, "quit") == 0) {
            return 0;
        }
    }
    return 0;
}
